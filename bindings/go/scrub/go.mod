module github.com/ai-ecoverse/slicc-scrub/bindings/go/scrub

go 1.19

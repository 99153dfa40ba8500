// swift-tools-version:5.7
// The Swift package of slicc-scrub: a small wrapper (SliccScrub) over the
// installed C library, which the system-library target CSliccScrub finds
// through pkg-config (slicc_scrub.pc). Install the C library first (the
// repository's CMakeLists.txt), then, for a prefix pkg-config does not
// search, set PKG_CONFIG_PATH to its lib/pkgconfig.
//
// Untested on the machine this was written on (no Swift toolchain there);
// CI runs `swift test` in its macOS job.
import PackageDescription

let package = Package(
    name: "SliccScrub",
    products: [
        .library(name: "SliccScrub", targets: ["SliccScrub"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSliccScrub",
            pkgConfig: "slicc_scrub",
            providers: []
        ),
        .target(name: "SliccScrub", dependencies: ["CSliccScrub"]),
        .testTarget(name: "SliccScrubTests", dependencies: ["SliccScrub"]),
    ]
)

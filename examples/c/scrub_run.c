/*
 * scrub_run: runs a command and forwards its output (stdout and stderr,
 * merged) through a slicc-scrub stream: the kernel's use case.
 *
 *   scrub_run SECRETS.json COMMAND [ARG...]
 *
 * SECRETS.json is an array of {"name", "value" | "valueHex",
 * "placeholder"?}. The command's stdin is ours. Output is forwarded as it
 * comes; when the stream holds bytes back (they could be the start of a
 * secret) and the command says nothing for SCRUB_IDLE_MS, scrub_stream_idle
 * releases them, so a prompt without a newline ("Password: ") appears at
 * once. Exits with the command's status (128 + signal when killed).
 */
#define _POSIX_C_SOURCE 200809L

#include <slicc_scrub.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const uint8_t *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t cap = 0;
    *len = 0;
    if (!f) {
        return NULL;
    }
    for (;;) {
        size_t n;
        if (*len == cap) {
            char *bigger = realloc(data, cap ? cap * 2 : 4096);
            if (!bigger) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = bigger;
            cap = cap ? cap * 2 : 4096;
        }
        n = fread(data + *len, 1, cap - *len, f);
        *len += n;
        if (n == 0) {
            break;
        }
    }
    fclose(f);
    return data;
}

/* Forwards a library-owned output buffer to our stdout. Call it after the
 * scrub_stream_* call, not around it: C does not order the evaluation of
 * arguments, so `out` must be read once the call has set it. */
static int forward(scrub_status status, const uint8_t *out, size_t out_len, const char *what) {
    if (status != SCRUB_STATUS_OK) {
        fprintf(stderr, "scrub_run: %s: %s\n", what, scrub_status_message(status));
        return -1;
    }
    if (write_all(STDOUT_FILENO, out, out_len) != 0) {
        perror("scrub_run: write");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_scrubber *scrubber = NULL;
    scrub_stream *stream = NULL;
    scrub_error *error = NULL;
    const uint8_t *out;
    size_t out_len, json_len;
    char *json;
    int pipe_fds[2];
    int idled = 0, failed = 0, status = 0;
    pid_t child;
    uint8_t buf[65536];

    if (argc < 3) {
        fprintf(stderr, "usage: %s SECRETS.json COMMAND [ARG...]\n", argv[0]);
        return 2;
    }
    json = read_file(argv[1], &json_len);
    if (!json) {
        fprintf(stderr, "scrub_run: cannot read %s\n", argv[1]);
        return 2;
    }
    if (scrub_compile_json(json, json_len, &options, &scrubber, &error) != SCRUB_STATUS_OK) {
        /* The message names the secret by index and name, never its value. */
        fprintf(stderr, "scrub_run: %s: %s\n", argv[1], scrub_error_message(error));
        scrub_error_free(error);
        free(json);
        return 2;
    }
    free(json);
    if (scrub_stream_new(scrubber, &stream) != SCRUB_STATUS_OK) {
        return 2;
    }
    scrub_scrubber_free(scrubber); /* the stream keeps the compiled secrets */

    if (pipe(pipe_fds) != 0) {
        perror("scrub_run: pipe");
        return 2;
    }
    child = fork();
    if (child < 0) {
        perror("scrub_run: fork");
        return 2;
    }
    if (child == 0) {
        close(pipe_fds[0]);
        if (dup2(pipe_fds[1], STDOUT_FILENO) < 0 || dup2(pipe_fds[1], STDERR_FILENO) < 0) {
            _exit(127);
        }
        close(pipe_fds[1]);
        execvp(argv[2], argv + 2);
        fprintf(stderr, "scrub_run: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    close(pipe_fds[1]);

    for (;;) {
        struct pollfd pfd;
        size_t held = 0;
        ssize_t n;
        int ready;
        pfd.fd = pipe_fds[0];
        pfd.events = POLLIN;
        pfd.revents = 0;
        scrub_stream_held(stream, &held);
        /* Wait SCRUB_IDLE_MS while bytes are held and no idle has been
         * tried since the last input; otherwise wait for input. */
        ready = poll(&pfd, 1, held > 0 && !idled ? SCRUB_IDLE_MS : -1);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            perror("scrub_run: poll");
            failed = 1;
            break;
        }
        if (ready == 0) {
            /* Quiet for SCRUB_IDLE_MS: release a held tail shorter than
             * SCRUB_FRAGMENT (a longer one could still grow into a match,
             * and stays until more input or the end). */
            scrub_status st = scrub_stream_idle(stream, &out, &out_len);
            if (forward(st, out, out_len, "idle") != 0) {
                failed = 1;
                break;
            }
            idled = 1;
            continue;
        }
        n = read(pipe_fds[0], buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            perror("scrub_run: read");
            failed = 1;
            break;
        }
        if (n == 0) {
            break; /* the command closed its output */
        }
        idled = 0;
        scrub_status st = scrub_stream_push(stream, buf, (size_t)n, &out, &out_len);
        if (forward(st, out, out_len, "push") != 0) {
            failed = 1;
            break;
        }
    }
    scrub_status st_end = scrub_stream_end(stream, &out, &out_len);
    if (forward(st_end, out, out_len, "end") != 0) {
        failed = 1;
    }
    scrub_stream_free(stream);
    close(pipe_fds[0]);

    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("scrub_run: waitpid");
            return 2;
        }
    }
    if (failed) {
        return 2;
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return 2;
}

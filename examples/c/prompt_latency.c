/*
 * prompt_latency: measures how long a prompt without a newline takes to get
 * through scrub_run, and checks that the secrets around it are scrubbed.
 *
 *   prompt_latency SCRUB_RUN SECRETS.json
 *
 * Runs `SCRUB_RUN SECRETS.json <this program> --child`. The child writes
 * two prompts and waits for a line after each. The stream holds back the
 * tail of each, since it could be the start of a secret, until scrub_run
 * calls scrub_stream_idle after SCRUB_IDLE_MS of silence:
 *   1. "Password: ": its final space could start a fragment of DB_PASSWORD
 *      ("correct horse battery staple" has 16-byte windows that begin
 *      with a space);
 *   2. "token ghp_": "ghp_" could be the start of GH_TOKEN.
 * The child sends the CLOCK_MONOTONIC time at which it wrote each prompt
 * through fd 3; the parent notes when the prompt reaches it. Fails when a
 * prompt takes longer than SCRUB_IDLE_MS + 150 ms, or when the secret the
 * child prints last is not scrubbed.
 */
#define _POSIX_C_SOURCE 200809L

#include <slicc_scrub.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIMIT_MS (SCRUB_IDLE_MS + 150)

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t len) {
    char *p = data;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The command under scrub_run. */
static int child_main(void) {
    char line[256];
    double t;
    const char *prompts[2] = {"Password: ", "token ghp_"};
    for (int i = 0; i < 2; i++) {
        t = now_ms();
        if (write_all(STDOUT_FILENO, prompts[i], strlen(prompts[i])) != 0 ||
            write_all(3, &t, sizeof t) != 0) {
            return 1;
        }
        if (!fgets(line, sizeof line, stdin)) {
            return 1;
        }
    }
    printf("\nsecret ghp_abcdefgh12345678 done\n");
    return 0;
}

/* Reads scrub_run's output until `want` has arrived; returns when, in ms. */
static double wait_for(int fd, char *seen, size_t *seen_len, size_t cap, const char *want) {
    while (!strstr(seen, want)) {
        ssize_t n;
        if (*seen_len + 1 >= cap) {
            return -1;
        }
        n = read(fd, seen + *seen_len, cap - 1 - *seen_len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        *seen_len += (size_t)n;
        seen[*seen_len] = '\0';
    }
    return now_ms();
}

int main(int argc, char **argv) {
    int to_child[2], from_child[2], stamps[2];
    char seen[4096];
    size_t seen_len = 0;
    const char *prompts[2] = {"Password: ", "token ghp_"};
    int status, ok = 1;
    pid_t pid;

    if (argc == 2 && strcmp(argv[1], "--child") == 0) {
        return child_main();
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s SCRUB_RUN SECRETS.json\n", argv[0]);
        return 2;
    }
    if (pipe(to_child) != 0 || pipe(from_child) != 0 || pipe(stamps) != 0) {
        perror("pipe");
        return 2;
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        dup2(stamps[1], 3);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        close(stamps[0]);
        if (stamps[1] != 3) {
            close(stamps[1]);
        }
        execl(argv[1], argv[1], argv[2], argv[0], "--child", (char *)NULL);
        perror("exec");
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    close(stamps[1]);
    seen[0] = '\0';

    for (int i = 0; i < 2; i++) {
        double written, arrived, latency;
        if (read_all(stamps[0], &written, sizeof written) != 0) {
            fprintf(stderr, "FAIL: no time stamp for prompt %d\n", i + 1);
            ok = 0;
            break;
        }
        arrived = wait_for(from_child[0], seen, &seen_len, sizeof seen, prompts[i]);
        if (arrived < 0) {
            fprintf(stderr, "FAIL: prompt %d (\"%s\") never arrived\n", i + 1, prompts[i]);
            ok = 0;
            break;
        }
        latency = arrived - written;
        printf("prompt %d \"%s\": %.1f ms (limit %d ms, SCRUB_IDLE_MS %d)\n", i + 1, prompts[i],
               latency, LIMIT_MS, SCRUB_IDLE_MS);
        if (latency > LIMIT_MS) {
            fprintf(stderr, "FAIL: prompt %d took %.1f ms\n", i + 1, latency);
            ok = 0;
        }
        if (write_all(to_child[1], "answer\n", 7) != 0) {
            ok = 0;
            break;
        }
    }
    close(to_child[1]);
    if (wait_for(from_child[0], seen, &seen_len, sizeof seen, " done\n") < 0) {
        fprintf(stderr, "FAIL: the end of the output never arrived\n");
        ok = 0;
    }
    if (!strstr(seen, "secret fnox_proxy_1 done\n") || strstr(seen, "abcdefgh12345678")) {
        fprintf(stderr, "FAIL: the secret was not scrubbed:\n%s\n", seen);
        ok = 0;
    }
    close(from_child[0]);
    close(stamps[0]);
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "FAIL: scrub_run did not exit 0\n");
        ok = 0;
    }
    printf("%s\n", ok ? "prompt latency: ok" : "prompt latency: FAILED");
    return ok ? 0 : 1;
}

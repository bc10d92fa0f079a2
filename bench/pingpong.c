/* pingpong.c - the raw floor for a referee round trip: two processes, two pipes, one line each way.
 * The parent writes a request line of REQ bytes, the child reads it with stdio and answers a short
 * line, like a bot; the parent reads the answer. Prints the median round trip in microseconds.
 * Build: gcc -O2 -o pingpong pingpong.c ; run: ./pingpong ITERATIONS REQ_BYTES */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000, req = argc > 2 ? atoi(argv[2]) : 600;
    int down[2], up[2];
    if (pipe(down) || pipe(up)) return 1;
    pid_t pid = fork();
    if (pid == 0) {  /* the "bot": read a line, answer a line, like a stdio bot */
        close(down[1]); close(up[0]);
        FILE *in = fdopen(down[0], "r"), *out = fdopen(up[1], "w");
        char *line = NULL; size_t cap = 0;
        while (getline(&line, &cap, in) > 0) {
            fputs("{\"type\":\"draw\",\"id\":1}\n", out);
            fflush(out);
        }
        return 0;
    }
    close(down[0]); close(up[1]);
    char *msg = malloc(req + 1), buf[256];
    memset(msg, 'x', req - 1); msg[req - 1] = '\n'; msg[req] = 0;
    double *t = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        if (write(down[1], msg, req) != req) return 1;
        ssize_t got = 0;
        while (got == 0 || buf[got - 1] != '\n') {
            ssize_t k = read(up[0], buf + got, sizeof buf - got);
            if (k <= 0) return 1;
            got += k;
        }
        t[i] = now_us() - t0;
    }
    close(down[1]);
    waitpid(pid, NULL, 0);
    qsort(t, n, sizeof(double), cmp);
    printf("%.3f\n", t[n / 2]);
    return 0;
}

/* trivial.c - the smallest correct Last Card bot, for latency benchmarks:
 * answers hello with ready, every turn with the first element of "legal"
 * (echoed unchanged), exits on quit or end of input, ignores everything else.
 * Build: gcc -O2 -std=c99 -Wall -Wextra -o trivial trivial.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Pointer just past the JSON value at p (strings and nesting tracked). */
static const char *skip_value(const char *p)
{
    int depth = 0, in_str = 0;
    if (*p != '"' && *p != '{' && *p != '[') {
        while (*p && !strchr(",}] \t\r\n", *p)) p++;
        return p;
    }
    for (; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') { in_str = 0; if (depth == 0) return p + 1; }
        } else if (*p == '"') in_str = 1;
        else if (*p == '{' || *p == '[') depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
    }
    return p;
}

/* Value of the top-level member key of the object at obj, or NULL (any key order). */
static const char *find_key(const char *obj, const char *key)
{
    size_t n = strlen(key);
    const char *p = ws(obj);
    if (*p != '{') return NULL;
    for (p = ws(p + 1); *p == '"'; p = ws(p + 1)) {
        const char *k = p + 1, *v;
        p = skip_value(p);
        v = ws(p);
        if (*v != ':') return NULL;
        v = ws(v + 1);
        if ((size_t)(p - k - 1) == n && memcmp(k, key, n) == 0) return v;
        p = ws(skip_value(v));
        if (*p != ',') return NULL;
    }
    return NULL;
}

static int is_str(const char *v, const char *s)
{
    size_t n = strlen(s);
    return v && v[0] == '"' && strncmp(v + 1, s, n) == 0 && v[1 + n] == '"';
}

static void reply(const char *s, size_t n)
{
    fwrite(s, 1, n, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

int main(void)
{
    static const char ready[] = "{\"type\":\"ready\",\"name\":\"c-trivial\"}";
    size_t cap = 1 << 17, len;
    char *buf = malloc(cap);
    if (!buf) return 1;
    while (fgets(buf, (int)cap, stdin)) {
        const char *t, *p;
        for (len = strlen(buf); len + 1 == cap && buf[len - 1] != '\n'; len += strlen(buf + len)) {
            if (!(buf = realloc(buf, cap *= 2))) return 1;  /* long line: grow, read on */
            if (!fgets(buf + len, (int)(cap - len), stdin)) break;
        }
        t = find_key(buf, "type");
        if (is_str(t, "quit")) break;
        if (is_str(t, "hello")) reply(ready, sizeof ready - 1);
        else if (is_str(t, "turn") && (p = find_key(buf, "legal")) && *p == '[' && *(p = ws(p + 1)) == '{')
            reply(p, (size_t)(skip_value(p) - p));
    }
    free(buf);
    return 0;
}

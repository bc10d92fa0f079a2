/* bot.c - a sample Last Card bot in C99, libc only.
 *
 * Build: gcc -O2 -std=c99 -Wall -Wextra -o bot bot.c
 *
 * The referee sends one JSON object per line on stdin (see protocol/PROTOCOL.md).
 * This bot answers only two of them:
 *   hello -> ready
 *   turn  -> one element of the turn's "legal" array, copied back byte for byte
 *            (every element is already a complete, valid answer with the right id)
 * It exits on "quit" or end of input and ignores every other message.
 * There is no JSON library: a few small functions walk the raw text instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- a tiny JSON scanner (pointers into one NUL-terminated line) ---------- */

static const char *ws(const char *p) /* skip whitespace */
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Return a pointer just past the JSON value at p: a string, an object, an array or a
 * scalar (number, true, false, null). Strings are tracked so that braces or escaped
 * quotes inside them do not confuse the depth count. */
static const char *skip_value(const char *p)
{
    int depth = 0, in_str = 0;
    if (*p != '"' && *p != '{' && *p != '[') {
        while (*p && !strchr(",}] \t\r\n", *p)) p++;
        return p;
    }
    for (; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;        /* skip the escaped character */
            else if (*p == '"') { in_str = 0; if (depth == 0) return p + 1; }
        } else if (*p == '"') in_str = 1;
        else if (*p == '{' || *p == '[') depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
    }
    return p;                                    /* truncated input: stop at the end */
}

/* In the object starting at obj, find the member named key. Only the object's own
 * members are looked at (not nested ones), in whatever order they come.
 * Return a pointer to the member's value, or NULL. */
static const char *find_key(const char *obj, const char *key)
{
    size_t n = strlen(key);
    const char *p = ws(obj);
    if (*p != '{') return NULL;
    for (p = ws(p + 1); *p == '"'; p = ws(p + 1)) {
        const char *k = p + 1, *v;
        p = skip_value(p);                       /* p is just past the key's closing quote */
        v = ws(p);
        if (*v != ':') return NULL;
        v = ws(v + 1);
        if ((size_t)(p - k - 1) == n && memcmp(k, key, n) == 0) return v;
        p = ws(skip_value(v));
        if (*p != ',') return NULL;
    }
    return NULL;
}

/* Is the value at v the JSON string "s" (prefix: does it start with s)? */
static int is_str(const char *v, const char *s, int prefix)
{
    size_t n = strlen(s);
    return v && v[0] == '"' && strncmp(v + 1, s, n) == 0 && (prefix || v[1 + n] == '"');
}

/* ---------- the strategy ---------- */

/* How many cards in the hand array have this colour ("red:7" has colour "red")? */
static int colour_count(const char *hand, const char *colour, size_t n)
{
    int count = 0;
    const char *p;
    if (!hand || *hand != '[') return 0;
    for (p = ws(hand + 1); *p == '"'; p = ws(p + 1)) {
        if (strncmp(p + 1, colour, n) == 0 && p[1 + n] == ':') count++;
        p = ws(skip_value(p));
        if (*p != ',') break;
    }
    return count;
}

/* Score one legal answer e (a JSON object): the highest score is played.
 * Plays beat draw and pass, plays without a wild beat plays with one, more cards
 * beat fewer, and when a colour is named, the colour we hold most wins. */
static int score(const char *e, const char *hand)
{
    const char *type = find_key(e, "type"), *v;
    int s = 0;
    if (is_str(type, "play", 0)) {
        int cards = 0, wild = 0;
        const char *p = find_key(e, "cards");
        if (p && *p == '[') {
            for (p = ws(p + 1); *p == '"'; p = ws(p + 1)) {
                cards++;
                if (is_str(p, "wild", 1)) wild = 1;   /* "wild" or "wild4" */
                p = ws(skip_value(p));
                if (*p != ',') break;
            }
        }
        s = 10000 + (wild ? 0 : 5000) + 100 * cards;
    } else if (is_str(type, "colour", 0)) s = 1000;  /* phase "colour": only these */
    else if (is_str(type, "draw", 0)) s = 20;
    else if (is_str(type, "pass", 0)) s = 10;

    v = find_key(e, "colour");                    /* wild play or colour answer */
    if (v && *v == '"') s += colour_count(hand, v + 1, strcspn(v + 1, "\""));
    v = find_key(e, "call");                      /* arcade last-card call: keep it */
    if (v && strncmp(v, "true", 4) == 0) s += 1;
    return s;
}

/* ---------- input and output ---------- */

/* Write one answer line and flush at once: the referee is waiting for it. */
static void reply(const char *s, size_t n)
{
    fwrite(s, 1, n, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Answer a turn: pick the best-scoring element of "legal" and echo it unchanged. */
static void play_turn(const char *msg)
{
    const char *hand = find_key(msg, "hand"), *p = find_key(msg, "legal");
    const char *best = NULL, *best_end = NULL;
    int best_score = -1;
    if (!p || *p != '[') return;
    for (p = ws(p + 1); *p == '{'; p = ws(p + 1)) {
        const char *end = skip_value(p);
        int s = score(p, hand);
        if (s > best_score) { best_score = s; best = p; best_end = end; }
        p = ws(end);
        if (*p != ',') break;
    }
    if (best) reply(best, (size_t)(best_end - best));
    else fprintf(stderr, "c-sample: turn without legal answers\n");
}

/* Read one line into *buf (grown as needed), without its "\n" or "\r\n".
 * Return 0 at end of input. */
static int read_line(char **buf, size_t *cap)
{
    size_t len = 0;
    if (!fgets(*buf, (int)*cap, stdin)) return 0;
    for (;;) {
        len += strlen(*buf + len);
        if ((len > 0 && (*buf)[len - 1] == '\n') || len + 1 < *cap) break; /* whole line, or EOF */
        *cap *= 2;                                /* buffer full: grow it and read on */
        if (!(*buf = realloc(*buf, *cap))) { fprintf(stderr, "c-sample: out of memory\n"); exit(1); }
        if (!fgets(*buf + len, (int)(*cap - len), stdin)) break;
    }
    while (len > 0 && ((*buf)[len - 1] == '\n' || (*buf)[len - 1] == '\r')) (*buf)[--len] = '\0';
    return 1;
}

int main(void)
{
    static const char ready[] =
        "{\"type\":\"ready\",\"name\":\"c-sample\",\"author\":\"lastcard\",\"version\":\"1\"}";
    size_t cap = 1 << 17;                         /* 128 KiB: more than the 64 KiB line limit */
    char *line = malloc(cap);
    if (!line) return 1;
    while (read_line(&line, &cap)) {
        const char *type = find_key(line, "type");
        if (is_str(type, "quit", 0)) break;
        if (is_str(type, "hello", 0)) reply(ready, sizeof ready - 1);
        else if (is_str(type, "turn", 0)) play_turn(line);
        /* start, event, round_end, game_end, error, ...: information only, never answered */
    }
    free(line);
    return 0;
}

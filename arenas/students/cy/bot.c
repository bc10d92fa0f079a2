/* Cy's bot: echoes the first element of "legal" (elements are flat JSON objects). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    size_t cap = 1 << 20;
    char *line = malloc(cap);
    if (!line) return 1;
    while (fgets(line, (int)cap, stdin)) {
        char *legal, *end;
        if (strstr(line, "\"type\":\"quit\"")) break;
        if (strstr(line, "\"type\":\"hello\"")) {
            puts("{\"type\":\"ready\",\"name\":\"cy\"}");
        } else if ((legal = strstr(line, "\"legal\":[{")) && (end = strchr(legal, '}'))) {
            legal += strlen("\"legal\":[");
            printf("%.*s\n", (int)(end - legal + 1), legal);
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}

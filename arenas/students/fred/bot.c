/* Fred's bot: does not compile (a missing semicolon), to show how a failed build is reported. */
#include <stdio.h>

int main(void)
{
    puts("{\"type\":\"ready\",\"name\":\"fred\"}")
    return 0;
}

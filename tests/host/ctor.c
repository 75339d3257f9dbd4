/* ctor — crt0 runs constructors before main and destructors/atexit handlers at exit;
 * thread-locals (errno lives there) start with their initial values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int ctor_ran;
static __thread int tls_init = 7;
static __thread int tls_zero;

__attribute__((constructor)) static void init(void)
{
    ctor_ran = 1;
}

static void bye(void)
{
    puts("atexit ran");
}

int main(void)
{
    atexit(bye);
    errno = 0;
    printf("ctor %d tls %d %d errno %d\n", ctor_ran, tls_init, tls_zero, errno);
    return 0;
}

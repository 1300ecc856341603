#warning redirecting incorrect #include <sys/errno.h> to <errno.h>
#include <errno.h>

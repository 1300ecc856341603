#warning redirecting incorrect #include <sys/poll.h> to <poll.h>
#include <poll.h>

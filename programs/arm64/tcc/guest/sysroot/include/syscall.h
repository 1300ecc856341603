#include <sys/syscall.h>

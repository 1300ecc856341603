#include <utmp.h>

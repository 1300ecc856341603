#include <arpa/nameser.h>


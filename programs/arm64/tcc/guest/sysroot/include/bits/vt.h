#include <linux/vt.h>

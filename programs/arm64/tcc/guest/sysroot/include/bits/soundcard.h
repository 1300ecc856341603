#include <linux/soundcard.h>

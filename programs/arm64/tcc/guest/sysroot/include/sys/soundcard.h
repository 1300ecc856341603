#include <bits/soundcard.h>

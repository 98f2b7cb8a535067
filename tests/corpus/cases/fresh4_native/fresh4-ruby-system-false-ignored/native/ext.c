#include <ruby_missing.h>

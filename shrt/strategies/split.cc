#include "shrt/registry.h"

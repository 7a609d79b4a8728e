#ifndef HERALD_CLIBYAML_SHIM_H
#define HERALD_CLIBYAML_SHIM_H
#include <yaml.h>
#endif

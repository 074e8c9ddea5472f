// core/version.h — which nardy this is: the version (CHANGELOG.md), the git commit and the build
// type the build was configured from. `nardy --version`, nardy.__version__ and checkpoints'
// metadata report them.
#pragma once

namespace nardy {

const char* nardy_version();     // "0.2.0"
const char* nardy_git_commit();  // short commit hash at configure time, or "unknown"
const char* nardy_build_type();  // CMAKE_BUILD_TYPE ("Release", ...), or "" when unset

}  // namespace nardy

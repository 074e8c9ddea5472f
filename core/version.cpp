#include "core/version.h"

namespace nardy {

const char* nardy_version() {
  return NARDY_VERSION;
}
const char* nardy_git_commit() {
  return NARDY_GIT_COMMIT;
}
const char* nardy_build_type() {
  return NARDY_BUILD_TYPE;
}

}  // namespace nardy

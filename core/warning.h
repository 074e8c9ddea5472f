// core/warning.h — warnings: what a user should hear about that is not an error.
//
// The library calls warn() (e.g. a checkpoint written before checksums loads without an
// integrity check: nn/value_net.h). By default the message goes to stderr as
// "warning: MESSAGE"; a front end may take warnings instead: the Python module issues them
// as Python warnings (warnings.warn with nardy.CheckpointWarning), so pytest.warns and the
// warnings filters see them. warn() may be called from any thread; the handler runs on the
// calling thread and may throw (a Python warning filter set to "error").
#pragma once

#include <functional>
#include <string>

namespace nardy {

enum class WarningKind { Checkpoint };

using WarningHandler = std::function<void(WarningKind, const std::string&)>;

void warn(WarningKind kind, const std::string& message);

// Installs `handler` (empty: back to stderr) and returns the previous one.
WarningHandler set_warning_handler(WarningHandler handler);

}  // namespace nardy

// check_known KNOWN.textproto REPORT.json...: the nightly check of DTensor's
// incorrect rules (dtensor/nightly_test.sh). Prints every incorrect rule
// the reports hold that KNOWN does not list, and every entry of KNOWN that
// no report finds incorrect (known_findings.h). Exit status 0 when there
// is neither, 1 when there is some, 2 for unreadable input.
#include <iostream>

#include "google/protobuf/util/json_util.h"
#include "shrt/vocab/text_proto.h"
#include "tools/dtensor/known_findings.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: check_known KNOWN.textproto REPORT.json...\n";
    return 2;
  }
  absl::StatusOr<std::vector<shrt::KnownEntry>> known = shrt::LoadKnownFindings(argv[1]);
  if (!known.ok()) {
    std::cerr << "check_known: " << known.status().message() << "\n";
    return 2;
  }
  std::vector<shrt::ValidationReport> reports;
  for (int i = 2; i < argc; ++i) {
    absl::StatusOr<std::string> json = shrt::ReadFile(argv[i]);
    shrt::ValidationReport& report = reports.emplace_back();
    if (!json.ok()) {
      std::cerr << "check_known: " << json.status().message() << "\n";
      return 2;
    }
    if (const auto s = google::protobuf::util::JsonStringToMessage(*json, &report); !s.ok()) {
      std::cerr << "check_known: " << argv[i] << ": " << s.message() << "\n";
      return 2;
    }
  }
  const shrt::KnownCheck check = shrt::CheckKnownFindings(reports, *known);
  for (const std::string& u : check.unlisted) {
    std::cout << "incorrect DTensor rule not in " << argv[1] << ": " << u << "\n";
  }
  for (const std::string& s : check.stale) {
    std::cout << "stale entry (no run finds it incorrect; fixed upstream?): " << s << "\n";
  }
  std::cout << known->size() << " known findings; " << check.unlisted.size() << " unlisted, "
            << check.stale.size() << " stale\n";
  return check.unlisted.empty() && check.stale.empty() ? 0 : 1;
}

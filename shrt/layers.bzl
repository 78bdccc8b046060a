"""What the packages of shrt/ share in their BUILD files: Abseil groups."""

ABSL_STRINGS = [
    "@com_google_absl//:strings",
    "@com_google_absl//:str_format",
]

ABSL_STATUS = [
    "@com_google_absl//:status",
    "@com_google_absl//:statusor",
]

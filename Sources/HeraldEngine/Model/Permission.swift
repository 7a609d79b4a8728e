/// The OS notification permission the caller reports for the device (`permission` in the
/// request). `denied` yields `system_denied` for channels that need permission.
public enum Permission: String, Sendable, Hashable, CaseIterable {
    case granted, denied, unknown, provisional
}

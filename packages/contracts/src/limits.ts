/** Limits shared by client and server (spec 01 §9, spec 02 §9). One place; both sides import them. */
export const LIMITS = {
  accountMaxLength: 64,
  nicknameMaxLength: 32,
  passwordMaxLength: 128,
  noticeBadgeMax: 99,
  noticeCountRefreshMs: 3_000_000,
  navigationOverlayMs: 200,
  preventDoubleClickMs: 3000,
  companyRolesMax: 5,
  panelsMax: 99,
  exportRowsMax: 20_000,
  noticeDialogWidth: 700,
  updateDialogWidth: 800,
} as const;

export const DEFAULT_THEME_COLOR = '#E6002D';

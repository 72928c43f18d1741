import { NoticeType } from '@sunward/contracts/notices';

/** The dialog title of a notice type (spec 01 §3: 1 upgrade, 3 plain notice, anything else maintenance). */
export function noticeTitleKey(type: number): 'notices.titleUpgrade' | 'notices.titleNotice' | 'notices.titleMaintenance' {
  return type === NoticeType.UPGRADE
    ? 'notices.titleUpgrade'
    : type === NoticeType.NOTICE
      ? 'notices.titleNotice'
      : 'notices.titleMaintenance';
}

export function typeKey(type: number): 'notices.type1' | 'notices.type2' | 'notices.type3' {
  return type === NoticeType.UPGRADE ? 'notices.type1' : type === NoticeType.NOTICE ? 'notices.type3' : 'notices.type2';
}

export function impactKey(impact: number): 'notices.impact0' | 'notices.impact1' | 'notices.impact2' {
  return impact === 2 ? 'notices.impact2' : impact === 1 ? 'notices.impact1' : 'notices.impact0';
}

export function statusKey(status: number): 'notices.status0' | 'notices.status1' | 'notices.status2' {
  return status === 0 ? 'notices.status0' : status === 2 ? 'notices.status2' : 'notices.status1';
}

export function scopeKey(scope: string): 'notices.scope0' | 'notices.scope1' | 'notices.scope2' {
  return scope === '1' ? 'notices.scope1' : scope === '2' ? 'notices.scope2' : 'notices.scope0';
}

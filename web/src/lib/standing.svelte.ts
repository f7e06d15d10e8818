// The signed-in person's standing with the moderators (docs/server.md, "Moderation"):
// a mute in force, what moderators did concerning them, and whether they moderate. Read
// once per signed-in account, and again after a refusal says it changed.
import type { ActionView } from '../generated/server/ActionView'
import type { MyStanding } from '../generated/server/MyStanding'
import type { ReportReason } from '../generated/server/ReportReason'
import { session } from './account.svelte'
import { api } from './api'
import { i18n, t } from './i18n.svelte'

export const standing = $state<{ of: string | null; now: MyStanding | null }>({ of: null, now: null })

/** Reads the signed-in person's standing (again with `fresh`). */
export async function loadStanding(fresh = false): Promise<void> {
  const account = session.account?.id ?? null
  if (account === null) {
    standing.of = null
    standing.now = null
    return
  }
  if (!fresh && standing.of === account) return
  standing.of = account
  try {
    standing.now = await api.standing()
  } catch {
    standing.now = null
  }
}

/** The reasons a report may give, in the order offered. */
export const REPORT_REASONS: readonly ReportReason[] = ['abuse', 'cheating', 'spam', 'name', 'leaving', 'other']

/** An action as its person reads it: what, until when, why. */
export function actionText(action: ActionView): string {
  const until = action.for_good
    ? t('moderation.forGood')
    : action.until === null
      ? ''
      : t('moderation.until', { when: new Intl.DateTimeFormat(i18n.lang, { dateStyle: 'medium', timeStyle: 'short' }).format(action.until) })
  return t(`moderation.done.${action.action}`, { until, reason: action.reason }).replace(/\s+([:：])/u, '$1')
}

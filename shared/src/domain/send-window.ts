// When a scheduled email may leave: inside the sender's working hours — from their
// mailbox settings (Microsoft Graph `mailboxSettings.workingHours`) or their own override in the
// profile — in the sender's time zone, daylight-saving changes included. Pure: time-zone arithmetic
// through Intl (IANA zones and fixed offsets); Graph's Windows zone names are mapped to IANA with
// CLDR's full table (windows-zones.ts, generated from the cldr-core package); a mailbox whose zone
// has no name we know is read from its own offset and daylight rules (Graph's customTimeZone).
import { WINDOWS_ZONES } from './windows-zones';

export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** When a custom zone changes to standard or daylight time (Graph's standardTimeZoneOffset / daylightTimeZoneOffset). */
export interface GraphZoneTransition {
  /** Local time of the change, 'HH:mm:ss[.fffffff]'. */
  time?: string;
  /** 1–4: that occurrence of the weekday in the month; 5: the last one. */
  dayOccurrence?: number;
  dayOfWeek?: string;
  /** 1–12; 0 or absent: the zone has no daylight saving time. */
  month?: number;
  year?: number;
  /** Daylight transitions only: minutes added to `bias` during daylight time (usually −60). */
  daylightBias?: number;
}

/**
 * Graph's customTimeZone: what mailboxSettings.workingHours.timeZone holds when the mailbox's zone
 * is not a named one. `bias` follows Windows (UTC = local time + bias, in minutes: UTC+05:00 is
 * −300, Pacific +480) — what Exchange answers, although Graph's reference describes the opposite sign.
 */
export interface CustomTimeZone {
  bias: number;
  standardOffset?: GraphZoneTransition | null;
  daylightOffset?: GraphZoneTransition | null;
}

/** Working hours as Graph's mailboxSettings answers them (startTime/endTime 'HH:mm:ss.0000000'). */
export interface WorkingHours {
  daysOfWeek: WeekDay[];
  /** 'HH:mm' or 'HH:mm:ss[.fffffff]' */
  startTime: string;
  endTime: string;
  /** IANA or Windows zone name, or a fixed offset ('UTC+05:30'). */
  timeZone: string;
  /** The mailbox's own zone rules when its zone has no known name (`timeZone` then reads its standard offset, 'UTC+05:30'). */
  custom?: CustomTimeZone;
}

/** Exchange Online's per-mailbox sending limits (documented receiving/sending limits). */
export const MAILBOX_LIMITS = {
  messagesPerMinute: 30,
  recipientsPerDay: 10_000,
  concurrentRequests: 4,
} as const;

/** The working hours a user has when neither the mailbox nor the profile says: Mon–Fri 08:00–17:00. */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  startTime: '08:00',
  endTime: '17:00',
  timeZone: 'UTC',
};

/** Names Exchange also answers for UTC that are not in CLDR's table. */
const UTC_ALIASES = ['Coordinated Universal Time', 'tzone://Microsoft/Utc', 'GMT', 'Z'];

const WINDOWS_BY_LOWER = new Map<string, string>([
  ...Object.entries(WINDOWS_ZONES).map(([w, iana]): [string, string] => [w.toLowerCase(), iana]),
  ...UTC_ALIASES.map((n): [string, string] => [n.toLowerCase(), 'UTC']),
]);

/** '+05:30' for 330 minutes east of UTC (a zone Intl accepts); `label` gives 'UTC+05:30'. */
export function offsetZoneName(minutesEast: number, label = false): string {
  const m = Math.abs(Math.round(minutesEast));
  const text = `${minutesEast < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return label ? `UTC${text}` : text;
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone Intl knows for a Graph or user zone name: a Windows name through CLDR's table (any
 * case), an IANA name as it is, a fixed offset ('UTC+05:30', '+05:30') as '+05:30'. Null when the
 * name is none of these: the caller decides (the mailbox's own offset, the profile's zone, or it
 * tells the user) — never a silent UTC.
 */
export function ianaZone(name: string | null | undefined): string | null {
  const n = name?.trim();
  if (!n || n.length > 100) return null;
  const windows = WINDOWS_BY_LOWER.get(n.toLowerCase());
  if (windows) return windows;
  const offset = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(n);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? 0);
    if (Number(offset[2]) > 14 || Number(offset[3] ?? 0) > 59) return null;
    return offsetZoneName(offset[1] === '-' ? -minutes : minutes);
  }
  return validZone(n) ? n : null;
}

/** A custom zone's rules, resolved: offsets east of UTC in minutes, and the two yearly changes (absent: no daylight time). */
interface RuleZone {
  standard: number;
  daylight: number;
  toDaylight: GraphZoneTransition;
  toStandard: GraphZoneTransition;
}
/** An IANA or offset name (through Intl), or a custom zone's rules. */
type Zone = string | RuleZone;

function hasRule(t: GraphZoneTransition | null | undefined): t is GraphZoneTransition {
  return Boolean(t && t.month && t.month >= 1 && t.month <= 12 && t.dayOfWeek && WEEK_DAYS.includes(t.dayOfWeek.toLowerCase() as WeekDay));
}

/** A custom zone as Intl's fixed offset when it has no daylight time, else as rules; null when its bias is unusable. */
function customZone(c: CustomTimeZone): Zone | null {
  if (typeof c.bias !== 'number' || !Number.isFinite(c.bias) || Math.abs(c.bias) > 14 * 60) return null;
  const standard = -c.bias;
  const daylight = -(c.bias + (c.daylightOffset?.daylightBias ?? 0));
  if (daylight === standard || !hasRule(c.daylightOffset) || !hasRule(c.standardOffset)) return offsetZoneName(standard);
  return { standard, daylight, toDaylight: c.daylightOffset, toStandard: c.standardOffset };
}

/** The zone working hours are in: the mailbox's own rules when it has them, else the named zone; null when unknown. */
function zoneOfHours(hours: WorkingHours): Zone | null {
  if (hours.custom) {
    const z = customZone(hours.custom);
    if (z) return z;
  }
  return ianaZone(hours.timeZone);
}

/** Whether the working hours' zone is one the product can compute with (a known name, an offset, or the mailbox's own rules). */
export function knowsZone(hours: WorkingHours): boolean {
  return zoneOfHours(hours) !== null;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function intlParts(ms: number, zone: string): Parts {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  const o: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) o[p.type] = p.value;
  return {
    year: Number(o.year),
    month: Number(o.month),
    day: Number(o.day),
    hour: Number(o.hour) % 24,
    minute: Number(o.minute),
    second: Number(o.second),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(o.weekday),
  };
}

/** The local wall time (as a UTC timestamp) of a Windows-style yearly change: the nth (5 = last) weekday of the month, at its time. */
function changeWallTime(year: number, t: GraphZoneTransition): number {
  const weekday = WEEK_DAYS.indexOf(t.dayOfWeek!.toLowerCase() as WeekDay);
  const first = new Date(Date.UTC(year, t.month! - 1, 1)).getUTCDay();
  const daysInMonth = new Date(Date.UTC(year, t.month!, 0)).getUTCDate();
  let day = 1 + ((weekday - first + 7) % 7) + (Math.min(Math.max(t.dayOccurrence ?? 1, 1), 5) - 1) * 7;
  while (day > daysInMonth) day -= 7;
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(t.time ?? '');
  return Date.UTC(year, t.month! - 1, day) + (m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0)) * 1000 : 0);
}

/** A custom zone's offset east of UTC at an instant, in minutes. */
function ruleOffset(ms: number, z: RuleZone): number {
  const year = new Date(ms + z.standard * 60_000).getUTCFullYear();
  // Into daylight time at the standard wall time, back at the daylight wall time (southern zones: across the new year).
  const start = changeWallTime(year, z.toDaylight) - z.standard * 60_000;
  const end = changeWallTime(year, z.toStandard) - z.daylight * 60_000;
  const daylight = start < end ? ms >= start && ms < end : ms >= start || ms < end;
  return daylight ? z.daylight : z.standard;
}

function partsIn(ms: number, zone: Zone): Parts {
  if (typeof zone === 'string') return intlParts(ms, zone);
  const d = new Date(ms + ruleOffset(ms, zone) * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** The zone's offset from UTC at that instant, in ms. */
function offsetAt(ms: number, zone: Zone): number {
  const p = partsIn(ms, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

function wallToUtc(y: number, month: number, d: number, h: number, min: number, zone: Zone): number {
  const guess = Date.UTC(y, month - 1, d, h, min);
  // A zone changes its offset at most once within a day: the offsets half a day either side are the candidates.
  const before = offsetAt(guess - 43_200_000, zone);
  const after = offsetAt(guess + 43_200_000, zone);
  const matches = [guess - before, guess - after].filter((c) => {
    const p = partsIn(c, zone);
    return p.year === y && p.month === month && p.day === d && p.hour === h && p.minute === min;
  });
  if (matches.length > 0) return Math.min(...matches);
  return guess - before;
}

/**
 * The instant a wall-clock time has in a zone (IANA or offset name). A time skipped by a
 * spring-forward change is moved forward by the gap (02:30 on the change day → 03:30); a repeated
 * one takes its first occurrence.
 */
export function zonedTimeToUtc(y: number, month: number, d: number, h: number, min: number, zone: string): number {
  return wallToUtc(y, month, d, h, min, zone);
}

function minutesOf(t: string): number {
  const m = /^(\d{1,2}):(\d{2})/.exec(t);
  if (!m) return 0;
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The first instant at or after `at` that lies inside the working hours (in their zone). Days
 * without working hours, and hours outside start–end, are skipped. With no day in the week (or an
 * empty window) the email leaves at `at`. Hours in a zone nobody knows (see `knowsZone`) are read
 * as UTC: the server never hands such hours here without having told the user.
 */
export function nextSendTime(at: Date | number, hours: WorkingHours): Date {
  const t = typeof at === 'number' ? at : at.getTime();
  const zone = zoneOfHours(hours) ?? 'UTC';
  const start = minutesOf(hours.startTime);
  const end = minutesOf(hours.endTime);
  const days = new Set(hours.daysOfWeek.map((d) => WEEK_DAYS.indexOf(d)).filter((i) => i >= 0));
  if (days.size === 0 || end <= start) return new Date(t);
  for (let i = 0; i < 8; i += 1) {
    const p = partsIn(t + i * 86_400_000, zone);
    if (!days.has(p.weekday)) continue;
    const open = wallToUtc(p.year, p.month, p.day, Math.floor(start / 60), start % 60, zone);
    const close = wallToUtc(p.year, p.month, p.day, Math.floor(end / 60), end % 60, zone);
    if (t < close) return new Date(Math.max(t, open));
  }
  return new Date(t);
}

/** Whether an instant lies inside the working hours. */
export function insideWorkingHours(at: Date | number, hours: WorkingHours): boolean {
  const t = typeof at === 'number' ? at : at.getTime();
  return nextSendTime(t, hours).getTime() === t;
}

/** The calendar date ('YYYY-MM-DD') of an instant in the working hours' zone (UTC's when the zone is unknown). */
export function dateInHours(at: Date | number, hours: WorkingHours): string {
  const p = partsIn(typeof at === 'number' ? at : at.getTime(), zoneOfHours(hours) ?? 'UTC');
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** Graph's workingHours.timeZone: a named zone (timeZoneBase) or a customTimeZone. */
export type GraphWorkingHoursZone = {
  name?: string;
  bias?: number;
  standardOffset?: GraphZoneTransition | null;
  daylightOffset?: GraphZoneTransition | null;
};

/**
 * Working hours from Graph's mailboxSettings answer (`workingHours`), or null when absent. The zone:
 * its name when known (Windows or IANA); else the mailbox's own offset and daylight rules when
 * Graph gives a customTimeZone (`timeZone` then reads 'UTC+05:00'); else the mailbox's zone
 * (`fallbackZone`: mailboxSettings.timeZone) when known; else the unknown name as it is (`knowsZone`
 * is false: the caller picks another zone and says so).
 */
export function workingHoursFromGraph(
  ws: { daysOfWeek?: string[]; startTime?: string; endTime?: string; timeZone?: GraphWorkingHoursZone | null } | null | undefined,
  fallbackZone?: string | null,
): WorkingHours | null {
  if (!ws || !ws.daysOfWeek || !ws.startTime || !ws.endTime) return null;
  const base = {
    daysOfWeek: ws.daysOfWeek.map((d) => d.toLowerCase()).filter((d): d is WeekDay => (WEEK_DAYS as readonly string[]).includes(d)),
    startTime: ws.startTime,
    endTime: ws.endTime,
  };
  const name = ws.timeZone?.name?.trim() || null;
  if (name && ianaZone(name)) return { ...base, timeZone: name };
  const tz = ws.timeZone;
  if (tz && typeof tz.bias === 'number') {
    const custom: CustomTimeZone = { bias: tz.bias, standardOffset: tz.standardOffset ?? null, daylightOffset: tz.daylightOffset ?? null };
    if (customZone(custom)) return { ...base, timeZone: offsetZoneName(-tz.bias, true), custom };
  }
  if (fallbackZone && ianaZone(fallbackZone)) return { ...base, timeZone: fallbackZone };
  return { ...base, timeZone: name ?? fallbackZone ?? '' };
}

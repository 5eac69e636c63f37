// When a scheduled email may leave (issue 18): inside the sender's working hours — from their
// mailbox settings (Microsoft Graph `mailboxSettings.workingHours`) or their own override in the
// profile — in the sender's time zone, daylight-saving changes included. Pure: time-zone arithmetic
// through Intl (IANA zones); Graph's Windows zone names are mapped to IANA first.

export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Working hours as Graph's mailboxSettings answers them (startTime/endTime 'HH:mm:ss.0000000'). */
export interface WorkingHours {
  daysOfWeek: WeekDay[];
  /** 'HH:mm' or 'HH:mm:ss[.fffffff]' */
  startTime: string;
  endTime: string;
  /** IANA or Windows zone name. */
  timeZone: string;
}

/** Exchange Online's per-mailbox sending limits (documented receiving/sending limits). */
export const MAILBOX_LIMITS = {
  messagesPerMinute: 30,
  recipientsPerDay: 10_000,
  concurrentRequests: 4,
} as const;

/** The working hours a user has when neither the mailbox nor the profile says: Mon–Fri 08:00–17:00. */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '08:00', endTime: '17:00', timeZone: 'UTC',
};

/** The Windows zone names Graph commonly answers, to IANA (CLDR windowsZones, territory 001). */
const WINDOWS_ZONES: Record<string, string> = {
  'UTC': 'UTC', 'Coordinated Universal Time': 'UTC', 'GMT Standard Time': 'Europe/London', 'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'W. Europe Standard Time': 'Europe/Berlin', 'Central Europe Standard Time': 'Europe/Budapest', 'Romance Standard Time': 'Europe/Paris',
  'Central European Standard Time': 'Europe/Warsaw', 'E. Europe Standard Time': 'Europe/Chisinau', 'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest', 'Russian Standard Time': 'Europe/Moscow', 'Turkey Standard Time': 'Europe/Istanbul',
  'Israel Standard Time': 'Asia/Jerusalem', 'South Africa Standard Time': 'Africa/Johannesburg', 'Arabian Standard Time': 'Asia/Dubai',
  'India Standard Time': 'Asia/Kolkata', 'China Standard Time': 'Asia/Shanghai', 'Singapore Standard Time': 'Asia/Singapore',
  'Tokyo Standard Time': 'Asia/Tokyo', 'Korea Standard Time': 'Asia/Seoul', 'AUS Eastern Standard Time': 'Australia/Sydney',
  'E. Australia Standard Time': 'Australia/Brisbane', 'New Zealand Standard Time': 'Pacific/Auckland',
  'Eastern Standard Time': 'America/New_York', 'Central Standard Time': 'America/Chicago', 'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix', 'Pacific Standard Time': 'America/Los_Angeles', 'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu', 'Atlantic Standard Time': 'America/Halifax', 'E. South America Standard Time': 'America/Sao_Paulo',
  'Argentina Standard Time': 'America/Buenos_Aires', 'Canada Central Standard Time': 'America/Regina', 'Central America Standard Time': 'America/Guatemala',
  'SA Pacific Standard Time': 'America/Bogota', 'Mexico Standard Time': 'America/Mexico_City', 'Central Standard Time (Mexico)': 'America/Mexico_City',
};

/** An IANA zone for a Graph zone name (Windows or IANA); UTC when unknown. */
export function ianaZone(name: string | null | undefined): string {
  if (!name) return 'UTC';
  const mapped = WINDOWS_ZONES[name] ?? name;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: mapped });
    return mapped;
  } catch {
    return 'UTC';
  }
}

interface Parts { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(ms: number, zone: string): Parts {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formatters.set(zone, f);
  }
  const o: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) o[p.type] = p.value;
  return {
    year: Number(o.year), month: Number(o.month), day: Number(o.day), hour: Number(o.hour) % 24, minute: Number(o.minute), second: Number(o.second),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(o.weekday),
  };
}

/** The zone's offset from UTC at that instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time has in a zone. A time skipped by a spring-forward change is moved
 * forward by the gap (02:30 on the change day → 03:30); a repeated one takes its first occurrence.
 */
export function zonedTimeToUtc(y: number, month: number, d: number, h: number, min: number, zone: string): number {
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

function minutesOf(t: string): number {
  const m = /^(\d{1,2}):(\d{2})/.exec(t);
  if (!m) return 0;
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The first instant at or after `at` that lies inside the working hours (in their zone). Days
 * without working hours, and hours outside start–end, are skipped. With no day in the week (or an
 * empty window) the email leaves at `at`.
 */
export function nextSendTime(at: Date | number, hours: WorkingHours): Date {
  const t = typeof at === 'number' ? at : at.getTime();
  const zone = ianaZone(hours.timeZone);
  const start = minutesOf(hours.startTime);
  const end = minutesOf(hours.endTime);
  const days = new Set(hours.daysOfWeek.map((d) => WEEK_DAYS.indexOf(d)).filter((i) => i >= 0));
  if (days.size === 0 || end <= start) return new Date(t);
  for (let i = 0; i < 8; i += 1) {
    const p = partsIn(t + i * 86_400_000, zone);
    if (!days.has(p.weekday)) continue;
    const open = zonedTimeToUtc(p.year, p.month, p.day, Math.floor(start / 60), start % 60, zone);
    const close = zonedTimeToUtc(p.year, p.month, p.day, Math.floor(end / 60), end % 60, zone);
    if (t < close) return new Date(Math.max(t, open));
  }
  return new Date(t);
}

/** Whether an instant lies inside the working hours. */
export function insideWorkingHours(at: Date | number, hours: WorkingHours): boolean {
  const t = typeof at === 'number' ? at : at.getTime();
  return nextSendTime(t, hours).getTime() === t;
}

/** Working hours from Graph's mailboxSettings answer (`workingHours`), or null when absent. */
export function workingHoursFromGraph(ws: { daysOfWeek?: string[]; startTime?: string; endTime?: string; timeZone?: { name?: string } } | null | undefined, fallbackZone?: string | null): WorkingHours | null {
  if (!ws || !ws.daysOfWeek || !ws.startTime || !ws.endTime) return null;
  return {
    daysOfWeek: ws.daysOfWeek.map((d) => d.toLowerCase()).filter((d): d is WeekDay => (WEEK_DAYS as readonly string[]).includes(d)),
    startTime: ws.startTime, endTime: ws.endTime, timeZone: ws.timeZone?.name || fallbackZone || 'UTC',
  };
}

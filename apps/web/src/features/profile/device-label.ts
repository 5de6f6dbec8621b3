/**
 * A session's browser and system in words ("Firefox on macOS"), from the User-Agent its sign-in sent
 * (the server keeps at most 256 characters). A few patterns, not a parser library: the label only helps
 * a person tell their sessions apart and decides nothing, and none is in the repo (ua-parser-js 2 is
 * AGPL). Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/python/i, 'Python'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

const first = (patterns: [RegExp, string][], text: string) =>
  patterns.find(([pattern]) => pattern.test(text))?.[1];

export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : 'Unknown browser');
}

import { tokens } from '@fluentui/react-components';

/** The Dealscout mark: a rounded square with a "D" and a target dot. */
export function BrandMark({ size = 28, inverted = false }: { size?: number; inverted?: boolean }) {
  const bg = inverted ? '#ffffff' : tokens.colorBrandBackground;
  const fg = inverted ? tokens.colorBrandBackground : '#ffffff';
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
      <rect width="32" height="32" rx="7" fill={bg} />
      <path d="M9 8h7a8 8 0 0 1 0 16H9z" fill="none" stroke={fg} strokeWidth="3" />
      <circle cx="16" cy="16" r="2.5" fill={fg} />
    </svg>
  );
}

// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { formatResult, formatValue, type FormattedValue } from '../../domain';
import { ValueView } from './ValueView';

afterEach(cleanup);

const show = (value: FormattedValue, props: { layout?: 'inline' | 'block'; links?: boolean } = {}) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <div data-testid="host">
        <ValueView value={value} {...props} />
      </div>
    </FluentProvider>,
  ).getByTestId('host');

describe('ValueView: one renderer, per type', () => {
  it('a number reads grouped; a boolean Yes / No; empty renders nothing', () => {
    expect(show(formatValue(1250000)).textContent).toBe('1,250,000');
    cleanup();
    expect(show(formatValue(false)).textContent).toBe('No');
    cleanup();
    expect(show(formatValue(null)).textContent).toBe('');
  });

  it('a date is a <time> with its ISO value', () => {
    const host = show(formatValue('2024-01-05'));
    const time = host.querySelector('time')!;
    expect(time.textContent).toBe('Jan 5, 2024');
    expect(time.getAttribute('datetime')).toBe('2024-01-05');
  });

  it('a URL is a link opening outside; an email a mailto link; without links (inside a button) plain text', () => {
    const link = show(formatValue('https://acme.example/about')).querySelector('a')!;
    expect([link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel'), link.textContent]).toEqual([
      'https://acme.example/about',
      '_blank',
      'noopener noreferrer',
      'https://acme.example/about',
    ]);
    cleanup();
    expect(show(formatValue('ceo@acme.example')).querySelector('a')!.getAttribute('href')).toBe('mailto:ceo@acme.example');
    cleanup();
    const plain = show(formatValue('https://acme.example'), { links: false });
    expect(plain.querySelector('a')).toBeNull();
    expect(plain.textContent).toBe('https://acme.example');
  });

  it('a list is chips', () => {
    show(formatValue(['Robotics', 'Automation']));
    expect(screen.getAllByTestId('value-chip').map((c) => c.textContent)).toEqual(['Robotics', 'Automation']);
  });

  it('several fields: labelled inline, or one per line (label, value) in the block layout', () => {
    const value = formatResult({ employees: 44, website: 'acme.example' });
    expect(show(value).textContent).toBe('Employees: 44·Website: acme.example');
    cleanup();
    show(value, { layout: 'block' });
    expect(screen.getAllByTestId('value-field-label').map((l) => l.textContent)).toEqual(['Employees', 'Website']);
    expect(screen.getAllByTestId('value-field-value').map((l) => l.textContent)).toEqual(['44', 'acme.example']);
    expect(screen.getByTestId('value-link').getAttribute('href')).toBe('https://acme.example');
  });
});

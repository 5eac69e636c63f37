// @vitest-environment happy-dom
import '../test-dom';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { DateRangePicker, SECOND_DATE_HINT, monthGrid, pickDay, type DateRange } from './DateRangePicker';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

describe('date range rules', () => {
  it('starts weeks on Monday', () => {
    // 1 March 2026 is a Sunday: six blanks before it.
    const weeks = monthGrid(2026, 2);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(weeks[1][0]).toBe('2026-03-02');
  });

  it('needs two dates, in either order', () => {
    expect(pickDay({ from: null, to: null }, '2026-03-10')).toEqual({ from: '2026-03-10', to: null });
    expect(pickDay({ from: '2026-03-10', to: null }, '2026-03-04')).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(pickDay({ from: '2026-03-04', to: '2026-03-10' }, '2026-03-20')).toEqual({ from: '2026-03-20', to: null });
  });
});

function Harness({ spy }: { spy: (r: DateRange | null) => void }) {
  const [value, setValue] = useState<DateRange | null>(null);
  return (
    <FluentProvider theme={webLightTheme}>
      <DateRangePicker
        label="Created Date"
        value={value}
        onChange={(r) => {
          setValue(r);
          spy(r);
        }}
      />
    </FluentProvider>
  );
}

describe('DateRangePicker', { timeout: 20_000 }, () => {
  it("disables OK with one date and says 'Please select second date'", async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Harness spy={spy} />);
    await user.click(screen.getByTestId('date-range-trigger'));
    await screen.findByTestId('date-range-picker');
    expect(screen.getAllByTestId('date-range-weekday').map((d) => d.textContent)).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    const ok = () => screen.getByTestId('date-range-ok') as HTMLButtonElement;
    expect(ok().disabled).toBe(true);
    const days = screen.getAllByTestId('date-range-day');
    await user.click(days[9]);
    expect(screen.getByTestId('date-range-hint').textContent).toBe(SECOND_DATE_HINT);
    expect(ok().disabled).toBe(true);
    await user.click(days[2]);
    expect(screen.getByTestId('date-range-hint').textContent).toBe('');
    expect(ok().disabled).toBe(false);
    await user.click(ok());
    expect(spy).toHaveBeenCalledWith({ from: days[2].dataset.day, to: days[9].dataset.day });
    expect(screen.getByTestId('date-range-trigger').textContent).toContain(`${days[2].dataset.day} – ${days[9].dataset.day}`);
  });
});

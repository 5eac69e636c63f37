// @vitest-environment happy-dom
import '../test-dom';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, render, screen, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { PaginationBar, PAGE_SIZE_OPTIONS, type PaginationBarProps } from './PaginationBar';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

function renderBar(over: Partial<PaginationBarProps> = {}) {
  const props: PaginationBarProps = {
    pageIndex: 0,
    pageSize: 10,
    totalPages: 5,
    totalRecords: 42,
    onPageChange: vi.fn(),
    onPageSizeChange: vi.fn(),
    ...over,
  };
  const utils = render(
    <FluentProvider theme={webLightTheme}>
      <PaginationBar {...props} />
    </FluentProvider>,
  );
  return { props, ...utils };
}

/** A bar whose page really moves, as in a table. */
function Controlled({ totalPages, onPage }: { totalPages: number; onPage: (i: number) => void }) {
  const [pageIndex, setPageIndex] = useState(2);
  return (
    <FluentProvider theme={webLightTheme}>
      <PaginationBar
        pageIndex={pageIndex}
        pageSize={10}
        totalPages={totalPages}
        onPageChange={(i) => {
          onPage(i);
          setPageIndex(i);
        }}
        onPageSizeChange={() => {}}
      />
    </FluentProvider>
  );
}

const label = () => screen.getByTestId('pagination-label').textContent;
const btn = (id: string) => screen.getByTestId(`pagination-${id}`) as HTMLButtonElement;
const goTo = () => screen.getByTestId('pagination-goto') as HTMLInputElement;

describe('PaginationBar', { timeout: 20_000 }, () => {
  it("an estimated total reads 'about 37,700 records' and 'Page 3 of about 755'; an exact one has no 'about'", () => {
    const { props } = renderBar({ pageIndex: 2, pageSize: 50, totalPages: 755, totalRecords: 37_700, totalIsEstimate: true });
    expect(screen.getByTestId('pagination-total').textContent).toBe('about 37,700 records');
    expect(label()).toBe('Page 3 of about 755');
    // 'Last page' still goes to the last (estimated) page; the server answers it from the end.
    fireEvent.click(btn('last'));
    expect(props.onPageChange).toHaveBeenCalledWith(754);
    cleanup();
    renderBar({ pageIndex: 2, pageSize: 50, totalPages: 755, totalRecords: 37_712 });
    expect(screen.getByTestId('pagination-total').textContent).toBe('37,712 records');
    expect(label()).toBe('Page 3 of 755');
  });

  it("shows the zero-based page as 'Page X of Y' (page+1)", () => {
    renderBar({ pageIndex: 0 });
    expect(label()).toBe('Page 1 of 5');
    cleanup();
    renderBar({ pageIndex: 4 });
    expect(label()).toBe('Page 5 of 5');
    expect(goTo().value).toBe('5');
    cleanup();
    // Grouped like the record count beside it ('1,000,000 records'): a million rows in pages of 10.
    renderBar({ pageIndex: 12344, totalPages: 100_000, totalRecords: 1_000_000 });
    expect(label()).toBe('Page 12,345 of 100,000');
    expect(goTo().value).toBe('12345');
  });

  it("shows 'Page 1 of 1' for an empty table and disables every move", () => {
    renderBar({ totalPages: 0, totalRecords: 0 });
    expect(label()).toBe('Page 1 of 1');
    for (const id of ['first', 'previous', 'next', 'last']) expect(btn(id).disabled).toBe(true);
  });

  it('disables first and previous on the first page, next and last on the last', () => {
    renderBar({ pageIndex: 0 });
    expect(btn('first').disabled).toBe(true);
    expect(btn('previous').disabled).toBe(true);
    expect(btn('next').disabled).toBe(false);
    expect(btn('last').disabled).toBe(false);
    cleanup();
    renderBar({ pageIndex: 4 });
    expect(btn('first').disabled).toBe(false);
    expect(btn('previous').disabled).toBe(false);
    expect(btn('next').disabled).toBe(true);
    expect(btn('last').disabled).toBe(true);
    cleanup();
    renderBar({ pageIndex: 2 });
    for (const id of ['first', 'previous', 'next', 'last']) expect(btn(id).disabled).toBe(false);
  });

  it('moves to the first, previous, next and last page (zero-based)', async () => {
    const user = userEvent.setup();
    const { props } = renderBar({ pageIndex: 2 });
    await user.click(btn('first'));
    await user.click(btn('previous'));
    await user.click(btn('next'));
    await user.click(btn('last'));
    expect(vi.mocked(props.onPageChange).mock.calls.map((c) => c[0])).toEqual([0, 1, 3, 4]);
  });

  it('clamps the go-to-page box to the pages that exist', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    render(<Controlled totalPages={5} onPage={onPage} />);
    expect(label()).toBe('Page 3 of 5');

    await user.clear(goTo());
    await user.type(goTo(), '99{Enter}');
    expect(onPage).toHaveBeenLastCalledWith(4);
    expect(goTo().value).toBe('5');
    expect(label()).toBe('Page 5 of 5');

    await user.clear(goTo());
    await user.type(goTo(), '0{Enter}');
    expect(onPage).toHaveBeenLastCalledWith(0);
    expect(goTo().value).toBe('1');
    expect(label()).toBe('Page 1 of 5');

    await user.clear(goTo());
    await user.type(goTo(), '2');
    await user.tab();
    expect(onPage).toHaveBeenLastCalledWith(1);
    expect(label()).toBe('Page 2 of 5');
  });

  it('refuses -, +, e and E in the go-to-page box and restores an empty box', async () => {
    const user = userEvent.setup();
    const { props } = renderBar({ pageIndex: 1 });
    await user.clear(goTo());
    await user.type(goTo(), '-e+E3');
    expect(goTo().value).toBe('3');
    await user.clear(goTo());
    await user.keyboard('{Enter}');
    expect(goTo().value).toBe('2');
    expect(props.onPageChange).not.toHaveBeenCalled();
  });

  it('does not call back when the go-to page is the current one', () => {
    const { props } = renderBar({ pageIndex: 1 });
    fireEvent.change(goTo(), { target: { value: '2' } });
    fireEvent.keyDown(goTo(), { key: 'Enter' });
    expect(props.onPageChange).not.toHaveBeenCalled();
  });

  it('offers 10 (the default) and 20, 40, 60, 80, 100, 250, 500, 750, 1000 rows per page', async () => {
    const user = userEvent.setup();
    const { props } = renderBar();
    const select = screen.getByTestId('pagination-page-size') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => Number(o.value))).toEqual([10, 20, 40, 60, 80, 100, 250, 500, 750, 1000]);
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 40, 60, 80, 100, 250, 500, 750, 1000]);
    expect(select.value).toBe('10');
    await user.selectOptions(select, '250');
    expect(props.onPageSizeChange).toHaveBeenCalledWith(250);
  });

  it('shows the record count', () => {
    renderBar({ totalRecords: 1234 });
    expect(screen.getByTestId('pagination-total').textContent).toBe('1,234 records');
  });
});

import { describe, expect, it } from 'vitest';
import { bodyText, documentText, inlineText } from './html-text';

describe('HTML to text, one converter', () => {
  it('an email body keeps paragraphs and line breaks and decodes entities', () => {
    expect(bodyText('<p>Dear Ada,</p><p>Hi &amp; bye<br>Grace</p>')).toBe('Dear Ada,\nHi & bye\nGrace');
    expect(bodyText('<div>a&nbsp;b</div><ul><li>one</li><li>two</li></ul>')).toBe('a\u00a0b\n * one\n * two');
  });

  it('an email body with only markup is empty', () => {
    expect(bodyText('<p><br></p>')).toBe('');
    expect(bodyText('<p>&nbsp;</p>').trim()).toBe('');
  });

  it('a link keeps its target after its text, and a bare link is written once', () => {
    expect(bodyText('<p>See <a href="https://acme.com/deck">the deck</a></p>')).toBe('See the deck [https://acme.com/deck]');
    expect(bodyText('<a href="https://acme.com">https://acme.com</a>')).toBe('https://acme.com');
  });

  it('markup that regular expressions got wrong: a > inside an attribute, comments, entities by number', () => {
    expect(bodyText('<p title="a > b">x</p><!-- <p>hidden</p> --><p>&#233;t&#xE9;</p>')).toBe('x\nété');
  });

  it('a web page drops scripts, styles, forms and images', () => {
    const page =
      '<html><head><title>T</title><style>p{}</style></head><body><script>x()</script><h1>Acme</h1><img ' +
      'src=a.png><form><input></form><p>Robots.</p></body></html>';
    expect(documentText(page)).toBe('Acme\n\nRobots.');
  });

  it('a search snippet is one line without its highlighting', () => {
    expect(inlineText('Acme <strong>Robotics</strong>\n &amp; Co &quot;x&quot; &#39;y&#39;')).toBe('Acme Robotics & Co "x" \'y\'');
  });
});

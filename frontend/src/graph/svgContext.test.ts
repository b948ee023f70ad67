import { describe, expect, it } from 'vitest';
import { SvgContext } from './svgContext';

describe('SvgContext', () => {
  it('records paths, rectangles and text under the transform', () => {
    const c = new SvgContext(100, 50);
    c.setTransform(2, 0, 0, 2, 10, 0);
    c.fillStyle = '#fff';
    c.fillRect(0, 0, 5, 5);
    c.beginPath();
    c.moveTo(0, 0);
    c.lineTo(10, 10);
    c.lineWidth = 1.5;
    c.strokeStyle = 'red';
    c.setLineDash([2, 3]);
    c.stroke();
    c.font = '600 12px system-ui, sans-serif';
    c.textAlign = 'center';
    c.fillText('x < y', 1, 1);
    const svg = c.toString();
    expect(svg).toContain('<path d="M10 0L20 0L20 10L10 10Z" fill="#fff"/>');
    expect(svg).toContain('d="M10 0L30 20" fill="none" stroke="red" stroke-width="3" stroke-dasharray="4 6"');
    expect(svg).toContain('font-size="24" font-weight="600"');
    expect(svg).toContain('text-anchor="middle"');
    expect(svg).toContain('>x &lt; y</text>');
  });
});

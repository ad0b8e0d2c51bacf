import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { ZafClient } from '../zaf/zafClient';

/** Keeps the ZAF iframe as tall as its content, telling Zendesk only when the height changes. */
export function useAutoResize(client: ZafClient, ref: RefObject<HTMLElement | null>) {
  const lastHeight = useRef<number | null>(null);

  const measure = () => {
    const element = ref.current;
    if (!element) return;
    const height = Math.ceil(element.getBoundingClientRect().height || element.scrollHeight);
    if (height === lastHeight.current) return;
    lastHeight.current = height;
    client.invoke('resize', { width: '100%', height: `${Math.max(height, 1)}px` }).catch(() => {
      // an unanswered resize must not break the view
    });
  };

  // Every render may change the content; the ResizeObserver also catches font loads and images.
  useLayoutEffect(measure);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => measure());
    observer.observe(element);
    return () => observer.disconnect();
  }, [client, ref]);
}

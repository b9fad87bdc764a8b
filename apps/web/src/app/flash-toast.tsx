import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { takeFlash } from '../lib/flash.ts';

/**
 * Shows the toast an action left for after its page reload (lib/flash.ts). Only the portal
 * leaves one (opening an account), so only the portal app shows it: the pay pages do without.
 */
export function FlashToast() {
  useEffect(() => {
    const flash = takeFlash();
    if (flash) toast[flash.kind](flash.message);
  }, []);
  return null;
}

import toast from 'react-hot-toast';

/** The spec gives login error toasts a dark-red background. */
export function loginErrorToast(message: string): void {
  toast.error(message, {
    id: 'login-error',
    style: { background: '#7a271a', color: '#ffffff' },
    iconTheme: { primary: '#ffffff', secondary: '#7a271a' },
  });
}

// The client's namespaces in ar that the signed-out pages use (sign-in and password pages, status
// pages, the language and theme switches, the SDK's toasts and antd's form messages): one chunk,
// loaded when the page first shows ar. The others are ../app/ar (login page weight).
import common from '../../locales/ar/common.json';
import validation from '../../locales/ar/validation.json';
import errors from '../../locales/ar/errors.json';
import auth from '../../locales/ar/auth.json';
import layout from '../../locales/ar/layout.json';

export default { common, validation, errors, auth, layout };

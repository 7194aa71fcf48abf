// The client's namespaces in en that the signed-out pages use (sign-in and password pages, status
// pages, the language and theme switches, the SDK's toasts and antd's form messages): one chunk,
// loaded when the page first shows en. The others are ../app/en (login page weight).
import common from '../../locales/en/common.json';
import validation from '../../locales/en/validation.json';
import errors from '../../locales/en/errors.json';
import auth from '../../locales/en/auth.json';
import layout from '../../locales/en/layout.json';

export default { common, validation, errors, auth, layout };

// Stylesheets imported for their side effect (webpack's style-loader; a stub under jest).
declare module '*.css';

// The generated fetch client names the DOM's BodyInit; a Node program without the DOM library
// (the repository's own tsconfig.json) takes it from Node's fetch types instead.
type BodyInit = NonNullable<RequestInit['body']>;

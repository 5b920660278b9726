// The API documentation page (/docs): Swagger UI, served by the arcade itself, reading the arcade's OpenAPI schema.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });

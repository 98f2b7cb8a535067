server {
  listen ${PORT};
  location / { proxy_pass http://${UPSTREAM_HOST}:9000; }
}

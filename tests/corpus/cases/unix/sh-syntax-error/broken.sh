if [ -f x ]; then
  echo x

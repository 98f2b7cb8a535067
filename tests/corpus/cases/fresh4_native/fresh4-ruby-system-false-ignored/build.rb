system('gcc -c native/ext.c -o ext.o')
puts 'assets compiled'

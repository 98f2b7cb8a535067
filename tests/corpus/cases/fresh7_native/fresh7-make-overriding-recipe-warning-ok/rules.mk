clean:
	rm -f *.o

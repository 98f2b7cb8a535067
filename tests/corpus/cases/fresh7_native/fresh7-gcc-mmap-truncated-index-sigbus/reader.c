#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror("open"); return 1; }
    size_t len = 2 * 4096;  /* the header promised two pages */
    unsigned char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 1; }
    printf("page 0 checksum byte: %d\n", p[0]);
    fflush(stdout);
    printf("page 1 checksum byte: %d\n", p[4096]);
    return 0;
}

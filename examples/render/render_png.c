/* render_png — the host half of examples/render: converts the guest's binary PPM (P6,
 * maxval 255) to PNG with libpng.  Usage: render_png IN.ppm OUT.png */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: render_png IN.ppm OUT.png\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    int w, h, maxval;
    if (!in || fscanf(in, "P6 %d %d %d", &w, &h, &maxval) != 3 || maxval != 255 || w < 1 || h < 1 ||
        w > 16384 || h > 16384 || fgetc(in) == EOF) {
        fprintf(stderr, "render_png: %s: not a binary PPM with maxval 255\n", argv[1]);
        return 1;
    }
    size_t row = 3u * (size_t)w;
    unsigned char *px = malloc(row * (size_t)h);
    if (!px || fread(px, row, (size_t)h, in) != (size_t)h) {
        fprintf(stderr, "render_png: %s: truncated\n", argv[1]);
        return 1;
    }
    fclose(in);
    FILE *out = fopen(argv[2], "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!out || !info || setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "render_png: cannot write %s\n", argv[2]);
        return 1;
    }
    png_init_io(png, out);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, px + row * (size_t)y);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(px);
    return fclose(out) ? 1 : 0;
}

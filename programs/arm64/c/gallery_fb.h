/* The gallery's screen: 320x200 pixels of 32-bit XRGB (0x00RRGGBB) drawn in memory and, after each
 * frame, written to the framebuffer path given on the command line.
 *
 * On the Metal machine that path is /dev/fb0: FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO say it is a
 * 320x200x32 screen with 1280-byte lines, each frame is written with pwrite and presented with
 * FBIOPAN_DISPLAY (which the machine counts). Under qemu-user the path is an existing plain file: the
 * ioctl fails, and each frame simply overwrites it, so the file ends as the last frame. Either way every
 * frame's FNV-1a checksum goes to stdout, which is therefore the same everywhere. */
#ifndef GALLERY_FB_H
#define GALLERY_FB_H

#include <fcntl.h>
#include <linux/fb.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define FB_W 320
#define FB_H 200

static uint32_t fb[FB_W * FB_H];
static int fb_fd = -1;
static int fb_is_device;
static struct fb_var_screeninfo fb_var;

static void fb_open(const char *path)
{
    if (!path)
        return;
    fb_fd = open(path, O_RDWR);
    if (fb_fd < 0)
        return;
    /* a real screen of another shape or layout is left alone (the frames are still checksummed) */
    struct fb_fix_screeninfo fix;
    if (ioctl(fb_fd, FBIOGET_VSCREENINFO, &fb_var) == 0) {
        fb_is_device = 1;
        if (fb_var.xres != FB_W || fb_var.yres != FB_H || fb_var.bits_per_pixel != 32 || fb_var.red.offset != 16 ||
            ioctl(fb_fd, FBIOGET_FSCREENINFO, &fix) != 0 || fix.line_length != FB_W * 4 || fix.smem_len < sizeof fb) {
            close(fb_fd);
            fb_fd = -1;
        }
    }
}

static uint32_t fb_checksum(void)
{
    const unsigned char *p = (const unsigned char *)fb;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof fb; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static inline uint32_t rgb(int r, int g, int b)
{
    return (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* Shows the frame and prints "frame N checksum XXXXXXXX". */
static void fb_present(int frame)
{
    printf("frame %d checksum %08x\n", frame, fb_checksum());
    if (fb_fd < 0)
        return;
    if (pwrite(fb_fd, fb, sizeof fb, 0) != (ssize_t)sizeof fb)
        perror("framebuffer write");
    if (fb_is_device)
        ioctl(fb_fd, FBIOPAN_DISPLAY, &fb_var);
}

#endif

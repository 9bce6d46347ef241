# The image: build/images/<platform>.elf for each platform in IMAGE_PLATFORMS.

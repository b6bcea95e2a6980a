import sys, gen
import programs, textures, raster, msaa, tess, geometry, streamout, memory, legacy
if __name__ == "__main__":
    gen.main(sys.argv[1:])

//! The geometry commands draw: `draw rect`, `draw arrays` over `[vertex data]`, grids,
//! and the triangle and pixel counts `glemu bench` reports.

use super::Runner;
use crate::scene::parse::AttribTarget;
use crate::{gl, Error};

impl Runner {
    pub(super) fn count_tris(&mut self, mode: u32, count: u32, instances: u32) {
        let n = u64::from(count);
        let t = match mode {
            gl::TRIANGLES => n / 3,
            gl::TRIANGLE_STRIP | gl::TRIANGLE_FAN | gl::POLYGON => n.saturating_sub(2),
            gl::QUADS => n / 4 * 2,
            gl::QUAD_STRIP => n.saturating_sub(2) / 2 * 2,
            gl::TRIANGLES_ADJACENCY => n / 6,
            gl::TRIANGLE_STRIP_ADJACENCY => n.saturating_sub(4) / 2,
            _ => 0,
        };
        self.triangles += t * u64::from(instances);
    }

    pub(super) fn bind_vertex_data(&mut self) -> Result<(), Error> {
        let vb = self
            .vertex_buffer
            .ok_or_else(|| Error::invalid_operation("draw without a [vertex data] section"))?;
        let Some(vd) = self.scene.vertex_data.clone() else {
            return Ok(());
        };
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, vb)?;
        let stride = vd.stride as i32;
        for col in &vd.columns {
            let off = col.offset as u64;
            let size = col.size as i32;
            match col.target {
                AttribTarget::Generic(n) => {
                    if col.integer {
                        self.ctx
                            .vertex_attrib_i_pointer(n, size, col.ty, stride, off)?
                    } else {
                        self.ctx
                            .vertex_attrib_pointer(n, size, col.ty, false, stride, off)?
                    }
                    self.ctx.enable_vertex_attrib_array(n)?;
                }
                AttribTarget::Position => {
                    self.ctx.vertex_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
                }
                AttribTarget::Color => {
                    self.ctx.color_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::COLOR_ARRAY)?;
                }
                AttribTarget::SecondaryColor => {
                    self.ctx
                        .secondary_color_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::SECONDARY_COLOR_ARRAY)?;
                }
                AttribTarget::Normal => {
                    self.ctx.normal_pointer(col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::NORMAL_ARRAY)?;
                }
                AttribTarget::FogCoord => {
                    self.ctx.fog_coord_pointer(col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::FOG_COORD_ARRAY)?;
                }
                AttribTarget::TexCoord(u) => {
                    self.ctx.client_active_texture(u)?;
                    self.ctx.tex_coord_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
                    self.ctx.client_active_texture(0)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn reset_arrays(&mut self) -> Result<(), Error> {
        for i in 0..crate::context::state::MAX_VERTEX_ATTRIBS as u32 {
            self.ctx.disable_vertex_attrib_array(i)?;
        }
        for a in [
            gl::VERTEX_ARRAY,
            gl::COLOR_ARRAY,
            gl::SECONDARY_COLOR_ARRAY,
            gl::NORMAL_ARRAY,
            gl::FOG_COORD_ARRAY,
        ] {
            self.ctx.disable_client_state(a)?;
        }
        for u in 0..crate::context::state::MAX_TEXTURE_COORDS as u32 {
            self.ctx.client_active_texture(u)?;
            self.ctx.disable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        }
        self.ctx.client_active_texture(0)
    }

    pub(super) fn draw_rect(
        &mut self,
        ortho: bool,
        patch: bool,
        r: [f32; 4],
        tex: Option<[f32; 4]>,
        instances: u32,
    ) -> Result<(), Error> {
        let (w, h) = self.ctx.size();
        let [mut x, mut y, mut rw, mut rh] = r;
        if ortho {
            // window pixels → NDC
            x = x / w as f32 * 2.0 - 1.0;
            y = y / h as f32 * 2.0 - 1.0;
            rw = rw / w as f32 * 2.0;
            rh = rh / h as f32 * 2.0;
        }
        let [tx, ty, tw, th] = tex.unwrap_or([0.0, 0.0, 1.0, 1.0]);
        let verts: [[f32; 8]; 4] = [
            [x, y, 0.0, 1.0, tx, ty, 0.0, 1.0],
            [x + rw, y, 0.0, 1.0, tx + tw, ty, 0.0, 1.0],
            [x, y + rh, 0.0, 1.0, tx, ty + th, 0.0, 1.0],
            [x + rw, y + rh, 0.0, 1.0, tx + tw, ty + th, 0.0, 1.0],
        ];
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, self.rect_buffer)?;
        self.ctx
            .buffer_data(gl::ARRAY_BUFFER, &verts, gl::STREAM_DRAW)?;
        self.ctx.vertex_pointer(4, gl::FLOAT, 32, 0)?;
        self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
        if self.rect_texcoords || tex.is_some() {
            self.ctx.tex_coord_pointer(4, gl::FLOAT, 32, 16)?;
            self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        }
        // Covered area for the bench figure: the rect clipped to NDC, in pixels.
        let cx0 = x.max(-1.0);
        let cx1 = (x + rw).min(1.0);
        let cy0 = y.max(-1.0);
        let cy1 = (y + rh).min(1.0);
        if cx1 > cx0 && cy1 > cy0 {
            self.pixels += (f64::from((cx1 - cx0) / 2.0 * w as f32)
                * f64::from((cy1 - cy0) / 2.0 * h as f32)) as u64;
        }
        if patch {
            self.ctx.patch_vertices(4)?;
            self.ctx
                .draw_arrays_instanced(gl::PATCHES, 0, 4, instances as i32)
        } else {
            self.triangles += 2 * u64::from(instances);
            self.ctx
                .draw_arrays_instanced(gl::TRIANGLE_STRIP, 0, 4, instances as i32)
        }
    }

    pub(super) fn draw_grid(&mut self, nx: u32, ny: u32) -> Result<(), Error> {
        if nx == 0 || ny == 0 || u64::from(nx) * u64::from(ny) > 4_000_000 {
            return Err(Error::invalid_value(format!("grid {nx}x{ny}")));
        }
        let (vb, ib, n) = match self.grids.get(&(nx, ny)) {
            Some(g) => *g,
            None => {
                let mut verts: Vec<[f32; 4]> = Vec::new();
                for j in 0..=ny {
                    for i in 0..=nx {
                        let (u, v) = (i as f32 / nx as f32, j as f32 / ny as f32);
                        verts.push([u * 2.0 - 1.0, v * 2.0 - 1.0, u, v]);
                    }
                }
                let mut idx: Vec<u32> = Vec::new();
                let at = |i: u32, j: u32| j * (nx + 1) + i;
                for j in 0..ny {
                    for i in 0..nx {
                        for k in [
                            at(i, j),
                            at(i + 1, j),
                            at(i, j + 1),
                            at(i + 1, j),
                            at(i + 1, j + 1),
                            at(i, j + 1),
                        ] {
                            idx.push(k);
                        }
                    }
                }
                let ids = self.ctx.gen_buffers(2)?;
                self.ctx.bind_buffer(gl::ARRAY_BUFFER, ids[0])?;
                self.ctx
                    .buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)?;
                self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ids[1])?;
                self.ctx
                    .buffer_data(gl::ELEMENT_ARRAY_BUFFER, &idx, gl::STATIC_DRAW)?;
                let g = (ids[0], ids[1], nx * ny * 6);
                self.grids.insert((nx, ny), g);
                g
            }
        };
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, vb)?;
        self.ctx.vertex_pointer(2, gl::FLOAT, 16, 0)?;
        self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
        self.ctx.tex_coord_pointer(2, gl::FLOAT, 16, 8)?;
        self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ib)?;
        let (w, h) = self.ctx.size();
        self.pixels += u64::from(w) * u64::from(h);
        self.triangles += u64::from(n / 3);
        self.ctx
            .draw_elements(gl::TRIANGLES, n as i32, gl::UNSIGNED_INT, 0)
    }
}

//! The windowed path: a winit window whose softbuffer surface shows each frame that
//! glemu renders. Resizing re-creates the framebuffer, Esc or closing quits, letters go
//! to the demo (`o` toggles the overlay), and the overlay (drawn by glemu into the frame)
//! and the title show frames per second.

use crate::demo::{context_for, Demo};
use crate::overlay::{self, Overlay};
use crate::present::rgba8_to_0rgb;
use crate::{DemoError, Result};
use glemu::Context;
use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

type Surface = softbuffer::Surface<Rc<Window>, Rc<Window>>;

struct App {
    name: String,
    demo: Box<dyn Demo>,
    size: (u32, u32),
    max_frames: Option<u32>,
    ctx: Option<Context>,
    window: Option<Rc<Window>>,
    surface: Option<Surface>,
    start: Instant,
    frames: u32,
    fps_frames: u32,
    fps_since: Instant,
    fps: Option<f32>,
    overlay: Overlay,
    show_overlay: bool,
    error: Option<DemoError>,
}

fn win_err(e: impl std::fmt::Display) -> DemoError {
    DemoError::Window(e.to_string())
}

impl App {
    fn open(&mut self, el: &ActiveEventLoop) -> Result<()> {
        let attrs = Window::default_attributes()
            .with_title(format!("glemu: {}", self.name))
            .with_inner_size(PhysicalSize::new(self.size.0, self.size.1));
        let window = Rc::new(el.create_window(attrs).map_err(win_err)?);
        let context = softbuffer::Context::new(window.clone()).map_err(win_err)?;
        let surface = softbuffer::Surface::new(&context, window.clone()).map_err(win_err)?;
        let inner = window.inner_size();
        self.size = (inner.width.max(1), inner.height.max(1));
        self.ctx = Some(context_for(self.demo.as_mut(), self.size.0, self.size.1)?);
        self.surface = Some(surface);
        self.window = Some(window);
        Ok(())
    }

    fn resize(&mut self, size: PhysicalSize<u32>) -> Result<()> {
        if size.width == 0 || size.height == 0 {
            return Ok(()); // minimized: keep the old framebuffer until it comes back
        }
        self.size = (size.width, size.height);
        if let Some(ctx) = self.ctx.as_mut() {
            let samples = self.demo.samples();
            ctx.resize_framebuffer(size.width, size.height, samples)?;
        }
        Ok(())
    }

    fn redraw(&mut self) -> Result<()> {
        let (Some(ctx), Some(surface), Some(window)) = (
            self.ctx.as_mut(),
            self.surface.as_mut(),
            self.window.as_ref(),
        ) else {
            return Ok(());
        };
        let (w, h) = ctx.size();
        let (Some(nw), Some(nh)) = (NonZeroU32::new(w), NonZeroU32::new(h)) else {
            return Ok(());
        };
        self.demo.draw(ctx, self.start.elapsed().as_secs_f32())?;
        if self.show_overlay {
            let rate = self
                .fps
                .map_or_else(|| "-- fps".to_string(), |f| format!("{f:.1} fps"));
            let d = &self.demo;
            self.overlay.draw(
                ctx,
                &overlay::lines(&self.name, &rate, &d.status(), d.keys()),
            )?;
        }
        let px = ctx.read_image()?.into_raw();
        surface.resize(nw, nh).map_err(win_err)?;
        let mut buf = surface.buffer_mut().map_err(win_err)?;
        rgba8_to_0rgb(&px, &mut buf);
        buf.present().map_err(win_err)?;
        self.frames += 1;
        self.fps_frames += 1;
        let since = self.fps_since.elapsed();
        if since >= Duration::from_millis(500) {
            let fps = self.fps_frames as f32 / since.as_secs_f32();
            self.fps = Some(fps);
            window.set_title(&format!("glemu: {} ({w}x{h}) {fps:.1} fps", self.name));
            self.fps_frames = 0;
            self.fps_since = Instant::now();
        }
        window.request_redraw();
        Ok(())
    }

    fn fail(&mut self, el: &ActiveEventLoop, e: DemoError) {
        self.error = Some(e);
        el.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.window.is_none() {
            if let Err(e) = self.open(el) {
                self.fail(el, e);
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let r = match event {
            WindowEvent::CloseRequested => {
                el.exit();
                Ok(())
            }
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key,
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => {
                match logical_key {
                    Key::Named(NamedKey::Escape) => el.exit(),
                    Key::Character(s) if s.as_str() == "o" => {
                        self.show_overlay = !self.show_overlay;
                    }
                    Key::Character(s) => s.chars().for_each(|c| self.demo.key(c)),
                    _ => {}
                }
                Ok(())
            }
            WindowEvent::Resized(size) => self.resize(size),
            WindowEvent::RedrawRequested => {
                let r = self.redraw();
                if self.max_frames.is_some_and(|n| self.frames >= n) {
                    el.exit();
                }
                r
            }
            _ => Ok(()),
        };
        if let Err(e) = r {
            self.fail(el, e);
        }
    }
}

/// Opens a window and runs `name` until Esc, close, or `max_frames` frames, with the
/// overlay shown unless `overlay` is false, after pressing `keys`.
pub fn run(
    name: &str,
    size: (u32, u32),
    max_frames: Option<u32>,
    overlay: bool,
    keys: &str,
) -> Result<()> {
    let mut demo =
        crate::by_name(name).ok_or_else(|| DemoError::Usage(format!("no demo '{name}'")))?;
    keys.chars().for_each(|c| demo.key(c));
    let event_loop = EventLoop::new().map_err(win_err)?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        name: name.to_string(),
        demo,
        size,
        max_frames,
        ctx: None,
        window: None,
        surface: None,
        start: Instant::now(),
        frames: 0,
        fps_frames: 0,
        fps_since: Instant::now(),
        fps: None,
        overlay: Overlay::default(),
        show_overlay: overlay,
        error: None,
    };
    event_loop.run_app(&mut app).map_err(win_err)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
